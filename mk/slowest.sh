#!/bin/sh
# slowest.sh XML...: the five slowest tests that ran, from the suites' Criterion XML reports
# (each <testcase>'s time), one line each: "  SECONDS s  suite/test". make test prints it
# before its count line, so that the next slowdown is seen when it comes. A parameterized
# test (a fixture row) is one name for all its rows: "(row N)" counts the ones that ran, in order.
# Nothing, and exit 0, when no report was written.
set -- $(for f; do [ -r "$f" ] && printf '%s\n' "$f"; done)
[ $# -gt 0 ] || exit 0
awk '
    function attr(line, key,   s) {
        s = line
        if (!sub(".*[ <]" key "=\"", "", s)) return ""
        sub(/".*/, "", s)
        return s
    }
    /<testsuite / { suite = attr($0, "name") }
    /<testcase / {
        if (attr($0, "status") == "SKIPPED") next
        name = suite "/" attr($0, "name")
        row[++n] = ++count[name]
        test[n] = name
        time[n] = attr($0, "time")
    }
    END {
        for (i = 1; i <= n; i++)
            printf "%s\t%s%s\n", time[i], test[i], (count[test[i]] > 1 ? " (row " row[i] ")" : "")
    }' "$@" | sort -t "$(printf '\t')" -k1,1 -g -r | head -n 5 |
    awk -F '\t' 'NR == 1 { print "slowest tests:" } { printf "  %7.1f s  %s\n", $1, $2 }'

# Covers: unknown instructions are kept; their arguments are dropped (one empty value) but their flags are kept.
FROM alpine
FOO bar baz
frobnicate --flag=x thing
USE node-runtime VERSION=20
CUSTOM ["json", "array"]
UNKNOWN
EOF

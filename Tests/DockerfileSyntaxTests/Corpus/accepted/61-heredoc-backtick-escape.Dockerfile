# escape=`
# Covers: heredocs under the backtick escape: bodies keep backslashes, names are still lexed with backslash as escape.
FROM mcr.microsoft.com/windows/nanoserver:ltsc2022
RUN <<EOF
echo C:\path\
echo line `
EOF
RUN echo a `
  <<EOF cat
joined
EOF
RUN <<\EOF
backslash still removed from the name under the backtick escape
EOF
RUN <<`EOF
backtick is part of the name
`EOF

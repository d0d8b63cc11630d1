# Covers: LF and CRLF mixed in one file, CR CR LF, and a heredoc body whose lines keep their own endings.
FROM alpine
RUN echo lf
RUN echo crcrlf
RUN echo a \
    b
RUN <<EOF
lf line
crlf line
EOF
RUN echo end

# escape=\
# Covers: CRLF line endings everywhere: directive, continuation, comment inside continuation, heredoc, JSON, pairs.
FROM alpine
RUN echo a \
    # comment
    b
RUN <<EOF
echo crlf
EOF
CMD ["a", "b"]
ENV A=1 B="x y"
RUN echo trailing spaces   

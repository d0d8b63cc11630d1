# Covers: heredoc names are taken literally after quote removal: $X, ${Y:-Z}, EOF>out and EOF.txt are whole names.
FROM alpine
RUN <<$X
body
$X
RUN cat <<EOF>out
b
EOF>out
RUN <<${Y:-Z}
b
${Y:-Z}
COPY <<EOF.txt /dst/
b
EOF.txt

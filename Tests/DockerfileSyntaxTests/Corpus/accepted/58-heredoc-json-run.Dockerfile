# Covers: '<<EOF' inside JSON-form RUN/COPY is not a heredoc, so the next lines are instructions.
FROM alpine
RUN ["cat", "<<EOF"]
EOF
RUN [ "sh", "-c", "cat <<EOF" ]
COPY ["<<EOF", "/x"]
RUN echo done

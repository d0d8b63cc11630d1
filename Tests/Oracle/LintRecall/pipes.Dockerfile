FROM debian:12-slim
RUN curl -fsSL https://example.com/data.txt | grep -v '^#' > /data.txt
RUN ps aux | grep nginx || true
RUN echo one \
    && cat /etc/os-release | head -n 2
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN wget -qO- https://example.com/list | sort > /list
FROM debian:12-slim AS second
RUN getent passwd | cut -d: -f1 > /users
RUN echo "a|b" > /x
USER 10001
CMD ["cat", "/users"]

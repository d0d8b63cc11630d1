# Covers: heredocs in ONBUILD RUN/COPY: BuildKit reads the body, but the library reports no heredocs for them.
FROM alpine
ONBUILD RUN <<EOF
echo at child build
FROM not-an-instruction
EOF
ONBUILD COPY <<EOF /x
content
EOF
ONBUILD RUN ["sh", "-c", "<<EOF"]
RUN echo after

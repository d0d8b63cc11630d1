# Covers: JSON (exec) form spread over continued lines, with a comment between elements.
FROM alpine
CMD ["python", \
     "-m", \
     "http.server"]
ENTRYPOINT [ \
  "/bin/sh", \
  "-c" \
]
RUN ["sh", "-c", \
    # a comment between elements
    "echo hi"]

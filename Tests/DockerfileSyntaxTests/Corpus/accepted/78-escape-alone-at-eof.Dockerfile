# Covers: an instruction that is only the escape character on the last line: BuildKit makes a node with an empty keyword and original, which the dockerfile package reports as null.
FROM alpine

  \
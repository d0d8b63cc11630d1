# Covers: comment lines and blank (or whitespace-only) lines inside a continued instruction are dropped.
FROM alpine
RUN apt-get update && \
    # install the tools
    apt-get install -y curl && \
# a comment at column one
    echo done
RUN echo a \

    b
RUN echo c \
   	
  d
RUN echo e \
    #comment that ends in a backslash \
    f
LABEL a=1 \
      # b=2
      c=3
RUN echo g \
#
    h

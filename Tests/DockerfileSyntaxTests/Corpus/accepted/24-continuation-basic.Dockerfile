# Covers: backslash continuation: how continued lines join into original and value.
FROM alpine
RUN apt-get update \
 && apt-get install -y \
      curl \
      git \
 && rm -rf /var/lib/apt/lists/*
RUN echo a\
b
RUN echo \
\
done
COPY a \
     b \
     /dst/
ENV A=1 \
  B=2
FROM \
  alpine \
  AS \
  x

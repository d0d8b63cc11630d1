# Covers: tabs between words, unicode text, non-breaking spaces, vertical tab and form feed, a CR in mid-line.
FROM	alpine
RUN	echo	"tab	inside"
LABEL description="Ünïcödé — 日本語 — 🐳"
ENV GREETING=こんにちは
WORKDIR /données
COPY ünïcode.txt /目的地/
USER		nobody
FROM alpine
 RUN echo leading nbsp
RUNechovt-and-ff
RUN echo ab

# Covers: ARG with and without defaults, several on one line, before FROM, quoted and empty defaults.
ARG BASE_IMAGE=alpine:3.19
ARG NO_DEFAULT
FROM ${BASE_IMAGE}
ARG A B=2 C
ARG VERSION="1.2.3" CHANNEL='stable'
ARG EMPTY=
ARG SPACED="a b c"
ARG WITH_EQ=k=v
ARG REF=${VERSION}-${CHANNEL:-beta}
ARG TARGETPLATFORM
ARG "QUOTED=1"
ARG
ARG a=1 b c=3

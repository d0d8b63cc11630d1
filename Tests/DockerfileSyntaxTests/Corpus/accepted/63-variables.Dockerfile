# Covers: variable references $V, ${V}, ${V:-d}, ${V-d}, ${V:+x}, ${V+x} and escaped \$ in many instructions (kept unexpanded).
ARG BASE=alpine
FROM ${BASE:-alpine}:${TAG-latest} AS ${STAGE_NAME}
ARG V=1
ENV A=$V B=${V} C=${V:-d} D=${V-d} E=${V:+x} F=${V+x} G=\$V H="\${V}" I='$V'
ENV J ${V:-spaces in default}
LABEL v=$V w="${V}" x=${V:?required} y=${V#prefix} z=${V%suffix}
WORKDIR /opt/${V}/$V
COPY ${SRC:-.} /dst/${V}
ADD --chown=${UID}:${GID} $URL /tmp/
RUN echo $V ${V} ${V:-d} \$V '$V' "$V" $$ ${}
USER ${UID:-1000}
EXPOSE ${PORT:-8080}
ARG NEXT=${V}${V}
STOPSIGNAL $SIG
VOLUME $DIR ${DIR2}
CMD ["echo", "$V", "${V}"]

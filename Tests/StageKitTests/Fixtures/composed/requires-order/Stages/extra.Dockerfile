# summary: more tooling; the tools are already in the build stage
# requires: tools
RUN make extra

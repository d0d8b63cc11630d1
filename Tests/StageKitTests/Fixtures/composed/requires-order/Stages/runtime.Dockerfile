# summary: a runtime built with the tools
# requires: tools
RUN make runtime

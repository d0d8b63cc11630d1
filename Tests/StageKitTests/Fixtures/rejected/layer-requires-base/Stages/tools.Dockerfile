# summary: tools that wrongly require a base
# requires: os
RUN echo tools

# summary: needs beta
# requires: beta
RUN echo alpha

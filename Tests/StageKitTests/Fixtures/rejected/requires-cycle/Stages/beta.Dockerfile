# summary: needs alpha
# requires: alpha
RUN echo beta

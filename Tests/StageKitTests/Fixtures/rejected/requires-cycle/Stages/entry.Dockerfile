# summary: enters the cycle
# requires: alpha
RUN echo entry

# summary: a runtime
RUN echo runtime

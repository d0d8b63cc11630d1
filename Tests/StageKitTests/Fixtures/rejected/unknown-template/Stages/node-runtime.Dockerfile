# summary: node-runtime
RUN echo node-runtime

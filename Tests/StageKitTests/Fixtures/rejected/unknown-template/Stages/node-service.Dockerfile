# summary: node-service
RUN echo node-service

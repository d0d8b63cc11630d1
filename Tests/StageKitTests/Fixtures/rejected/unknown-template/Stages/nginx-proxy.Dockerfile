# summary: nginx-proxy
RUN echo nginx-proxy

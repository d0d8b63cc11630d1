# summary: ends with blank lines


RUN rm -rf /tmp/*




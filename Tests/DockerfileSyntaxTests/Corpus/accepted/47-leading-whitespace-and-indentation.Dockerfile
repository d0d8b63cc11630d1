# Covers: indented instructions and comments; the indentation of continuation lines is kept.
   FROM alpine
	RUN echo tab-indented
    # indented comment
  RUN echo a \
      b
	 	ENV A=1

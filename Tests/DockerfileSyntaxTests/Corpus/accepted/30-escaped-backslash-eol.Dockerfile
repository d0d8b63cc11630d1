# Covers: an escaped backslash at line end is not a continuation, and three backslashes are not one either.
FROM alpine
RUN echo trailing \\
RUN echo odd \\\
RUN echo windows-ish C:\\path\\
ENV P=C:\\
RUN echo next

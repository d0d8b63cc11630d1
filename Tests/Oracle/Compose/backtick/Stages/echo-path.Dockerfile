# escape=`
# summary: A Windows-style template with the backtick escape
# param TARGET: a path with backslashes and a backtick
ARG TARGET
RUN echo %TARGET% `
    && echo done

# escape=`
# summary: written for the backtick escape
RUN echo C:\app `
    && dir

# escape=`
# summary: copies the app into a folder
# param DIR: where the app goes
# param NOTE: printed when the image is built
ARG DIR=C:\app
ARG NOTE=
COPY app/ ${DIR}/
RUN echo %NOTE% `
    && dir

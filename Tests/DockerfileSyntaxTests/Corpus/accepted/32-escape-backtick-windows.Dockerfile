# escape=`
# Covers: the backtick escape directive in a Windows-style file: backtick continuations, backslash paths.
FROM mcr.microsoft.com/windows/servercore:ltsc2022
SHELL ["powershell", "-Command", "$ErrorActionPreference = 'Stop';"]
WORKDIR C:\app
COPY .\bin\Release\ C:\app\
RUN New-Item -ItemType Directory C:\data ; `
    Write-Host 'done'
ENV PATH="C:\tools;${PATH}" HOME=C:\Users\app
RUN echo trailing backslash stays \
RUN echo `
    `
    continued
CMD ["C:\\app\\app.exe"]
ENV ESC=a` b QUOTE="say `"hi`""
RUN echo escaped backtick ``
RUN echo done

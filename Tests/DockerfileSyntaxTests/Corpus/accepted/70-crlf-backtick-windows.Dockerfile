# escape=`
# Covers: a typical Windows Dockerfile: CRLF endings, backtick continuations, backslash paths, a chomped heredoc.
FROM mcr.microsoft.com/windows/servercore:ltsc2022
SHELL ["powershell", "-Command"]
RUN Invoke-WebRequest -Uri https://example.com/tool.zip -OutFile C:\tool.zip ; `
    Expand-Archive C:\tool.zip -DestinationPath C:\tool ; `
    Remove-Item C:\tool.zip
WORKDIR C:\tool
RUN <<-EOF
	Write-Host done
	EOF
CMD ["C:\\tool\\tool.exe"]

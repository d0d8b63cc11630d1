# Covers: SHELL in JSON form (POSIX and PowerShell) and in shell form (accepted by the parser).
FROM alpine
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
SHELL ["powershell", "-Command", "$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue';"]
SHELL /bin/sh -c
SHELL ["cmd", "/S", "/C"]

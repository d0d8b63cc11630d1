# escape=`
# summary: Windows Server Core
FROM mcr.microsoft.com/windows/servercore:ltsc2022

import StagebuildCLI

StagebuildCommand.exitAfterRunning()

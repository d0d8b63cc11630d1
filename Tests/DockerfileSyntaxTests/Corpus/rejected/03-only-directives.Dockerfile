# syntax=docker/dockerfile:1
# escape=`
# Covers: directives and comments alone are not instructions.

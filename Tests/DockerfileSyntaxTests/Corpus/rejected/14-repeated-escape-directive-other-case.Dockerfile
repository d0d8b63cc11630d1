# escape=`
#ESCAPE = `
# Covers: the repeat check ignores the letter case of the directive name.
FROM alpine

# Covers: exec (JSON) form for CMD and ENTRYPOINT, whitespace inside arrays, shell form beside it.
FROM alpine
CMD ["nginx", "-g", "daemon off;"]
CMD     [   "spaced"  ,   "out"   ]   
CMD	["tab",	"separated"]
ENTRYPOINT ["/docker-entrypoint.sh"]
ENTRYPOINT ["sh","-c","echo \"quoted\" and \\ backslash"]
CMD echo shell form
ENTRYPOINT exec app --flag
CMD ["single"]
CMD [ "a" , "b" ]

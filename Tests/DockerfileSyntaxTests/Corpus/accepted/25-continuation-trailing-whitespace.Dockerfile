# Covers: spaces and tabs after the continuation backslash still continue the line.
FROM alpine
RUN echo one \   
    two \	
    three
RUN echo four \ 	 
five
RUN echo six\	
seven

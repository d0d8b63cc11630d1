# Covers: trailing spaces and tabs on instruction lines, and whitespace-only lines between instructions.
FROM alpine   
   	  
RUN echo x 	 
ENV A=1   B=2   
CMD ["a"]   	

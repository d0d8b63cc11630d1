# Covers: JSON string escapes (\u00e9, surrogate pairs, \/, \n, \t, \\, \") and raw non-ASCII in exec form.
FROM alpine
CMD ["caf\u00e9", "\u2603", "a\/b", "line\nbreak", "tab\there", "back\\slash", "say \"hi\""]
CMD ["\ud83d\udc33", "\u00E9", "\b\f\r"]
ENTRYPOINT ["naïve", "日本語", "emoji 🐳"]
RUN ["printf", "%s\\n", "\u0041\u0042"]
LABEL desc="caf\u00e9 is not unescaped outside JSON"

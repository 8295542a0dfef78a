# New content replaces both files; the fixed one stays.
greeting = "goodbye"

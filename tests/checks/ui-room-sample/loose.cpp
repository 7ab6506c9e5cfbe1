// A file at ui/'s top that is not the session front end.

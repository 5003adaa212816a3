# Screen bodies: titles, column headers, labels, hints and messages.

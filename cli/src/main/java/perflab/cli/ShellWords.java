package perflab.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Splits one line into words as a POSIX shell does, without running one: blanks separate words, single quotes keep
 * everything, double quotes keep everything but a backslash before {@code " \ $ `}, a backslash outside quotes keeps
 * the next character. Nothing is expanded: {@code $HOME} and {@code *} stay as written (a server file's placeholders
 * are perflab's, filled in later).
 */
final class ShellWords {
    private ShellWords() {
    }

    /** The words of {@code line}; an unclosed quote or a trailing backslash is {@code failure}'s exception. */
    static List<String> split(String line, Function<String, RuntimeException> failure) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw failure.apply("a single quote is not closed");
                }
                word.append(line, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '"') {
                int j = i + 1;
                for (; j < line.length() && line.charAt(j) != '"'; j++) {
                    char d = line.charAt(j);
                    if (d == '\\' && j + 1 < line.length() && "\"\\$`".indexOf(line.charAt(j + 1)) >= 0) {
                        d = line.charAt(++j);
                    }
                    word.append(d);
                }
                if (j >= line.length()) {
                    throw failure.apply("a double quote is not closed");
                }
                i = j;
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 >= line.length()) {
                    throw failure.apply("a backslash ends the line");
                }
                word.append(line.charAt(++i));
                inWord = true;
            } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}

#include "globpattern.h"

#include <cstring>

namespace AgentCore {

namespace {

// A port of git's wildmatch.c (dowild), which defines .gitignore matching.
enum MatchResult { NoMatch = 1, Match = 0, AbortAll = -1, AbortToStarStar = -2 };

using uchar = unsigned char;

bool isGlobSpecial(uchar c)
{
    return c == '*' || c == '?' || c == '[' || c == '\\';
}

uchar lower(uchar c)
{
    return (c >= 'A' && c <= 'Z') ? uchar(c - 'A' + 'a') : c;
}

bool isUpper(uchar c)
{
    return c >= 'A' && c <= 'Z';
}

bool isLower(uchar c)
{
    return c >= 'a' && c <= 'z';
}

bool classMatches(const uchar *name, int length, uchar c, bool *malformed)
{
    const auto is = [&](const char *cls) {
        return int(std::strlen(cls)) == length && std::memcmp(name, cls, size_t(length)) == 0;
    };
    const bool alpha = isUpper(c) || isLower(c);
    const bool digit = c >= '0' && c <= '9';
    if (is("alnum"))
        return alpha || digit;
    if (is("alpha"))
        return alpha;
    if (is("blank"))
        return c == ' ' || c == '\t';
    if (is("cntrl"))
        return c < 32 || c == 127;
    if (is("digit"))
        return digit;
    if (is("graph"))
        return c > 32 && c < 127;
    if (is("lower"))
        return isLower(c);
    if (is("print"))
        return c >= 32 && c < 127;
    if (is("punct"))
        return c > 32 && c < 127 && !alpha && !digit;
    if (is("space"))
        return c == ' ' || (c >= '\t' && c <= '\r');
    if (is("upper"))
        return isUpper(c);
    if (is("xdigit"))
        return digit || (lower(c) >= 'a' && lower(c) <= 'f');
    *malformed = true;
    return false;
}

int dowild(const uchar *p, const uchar *text, int flags)
{
    const bool caseFold = flags & GlobPattern::CaseInsensitive;
    const bool pathName = flags & GlobPattern::PathName;
    const uchar *pattern = p;
    uchar pch;
    for (; (pch = *p) != '\0'; text++, p++) {
        uchar tch = *text;
        if (tch == '\0' && pch != '*')
            return AbortAll;
        if (caseFold) {
            tch = lower(tch);
            pch = lower(pch);
        }
        switch (pch) {
        case '\\':
            pch = *++p;
            if (caseFold)
                pch = lower(pch);
            if (tch != pch)
                return NoMatch;
            continue;
        default:
            if (tch != pch)
                return NoMatch;
            continue;
        case '?':
            if (pathName && tch == '/')
                return NoMatch;
            continue;
        case '*': {
            bool matchSlash;
            if (*++p == '*') {
                const uchar *prev = p - 2;
                while (*++p == '*') {
                }
                if ((prev < pattern || *prev == '/')
                    && (*p == '\0' || *p == '/' || (p[0] == '\\' && p[1] == '/'))) {
                    if (p[0] == '/' && dowild(p + 1, text, flags) == Match)
                        return Match;
                    matchSlash = true;
                } else {
                    matchSlash = !pathName;
                }
            } else {
                matchSlash = !pathName;
            }
            if (*p == '\0') {
                if (!matchSlash && std::strchr(reinterpret_cast<const char *>(text), '/'))
                    return NoMatch;
                return Match;
            }
            if (!matchSlash && *p == '/') {
                const char *slash = std::strchr(reinterpret_cast<const char *>(text), '/');
                if (!slash)
                    return NoMatch;
                text = reinterpret_cast<const uchar *>(slash);
                break; // the loop consumes the slash on both sides
            }
            for (;;) {
                if (tch == '\0')
                    break;
                if (!isGlobSpecial(*p)) {
                    // Skip ahead to the next occurrence of the literal that follows the star.
                    const uchar want = caseFold ? lower(*p) : *p;
                    while ((tch = *text) != '\0' && (matchSlash || tch != '/')) {
                        if (caseFold)
                            tch = lower(tch);
                        if (tch == want)
                            break;
                        text++;
                    }
                    if (tch != want)
                        return NoMatch;
                }
                const int matched = dowild(p, text, flags);
                if (matched != NoMatch) {
                    if (!matchSlash || matched != AbortToStarStar)
                        return matched;
                } else if (!matchSlash && tch == '/') {
                    return AbortToStarStar;
                }
                tch = *++text;
                if (caseFold)
                    tch = lower(tch);
            }
            return AbortAll;
        }
        case '[': {
            pch = *++p;
            if (pch == '^')
                pch = '!';
            const bool negated = pch == '!';
            if (negated)
                pch = *++p;
            uchar prev = 0;
            bool matched = false;
            do {
                if (!pch)
                    return AbortAll;
                if (pch == '\\') {
                    pch = *++p;
                    if (!pch)
                        return AbortAll;
                    if (tch == (caseFold ? lower(pch) : pch))
                        matched = true;
                } else if (pch == '-' && prev && p[1] && p[1] != ']') {
                    pch = *++p;
                    if (pch == '\\') {
                        pch = *++p;
                        if (!pch)
                            return AbortAll;
                    }
                    const uchar raw = *text;
                    if (raw <= pch && raw >= prev) {
                        matched = true;
                    } else if (caseFold) {
                        const uchar up = isLower(raw) ? uchar(raw - 'a' + 'A') : raw;
                        const uchar low = lower(raw);
                        if ((up <= pch && up >= prev) || (low <= pch && low >= prev))
                            matched = true;
                    }
                    pch = 0;
                } else if (pch == '[' && p[1] == ':') {
                    const uchar *s = p += 2;
                    while ((pch = *p) && pch != ']')
                        p++;
                    if (!pch)
                        return AbortAll;
                    const int length = int(p - s - 1);
                    if (length < 0 || p[-1] != ':') {
                        p = s - 2;
                        pch = '[';
                        if (tch == pch)
                            matched = true;
                        continue;
                    }
                    bool malformed = false;
                    if (classMatches(s, length, *text, &malformed))
                        matched = true;
                    if (malformed)
                        return AbortAll;
                    pch = 0;
                } else if (tch == (caseFold ? lower(pch) : pch)) {
                    matched = true;
                }
            } while (prev = pch, (pch = *++p) != ']');
            if (matched == negated || (pathName && tch == '/'))
                return NoMatch;
            continue;
        }
        }
    }
    return *text ? NoMatch : Match;
}

void expandInto(const QByteArray &pattern, QList<QByteArray> &out)
{
    if (out.size() >= 256)
        return;
    // The first '{' with a matching '}' and a ',' at its own level.
    for (qsizetype open = 0; open < pattern.size(); ++open) {
        if (pattern[open] == '\\') {
            ++open;
            continue;
        }
        if (pattern[open] != '{')
            continue;
        int depth = 0;
        QList<qsizetype> commas;
        for (qsizetype i = open; i < pattern.size(); ++i) {
            const char c = pattern[i];
            if (c == '\\') {
                ++i;
            } else if (c == '{') {
                ++depth;
            } else if (c == '}' && --depth == 0) {
                if (commas.isEmpty())
                    break;
                const QByteArray head = pattern.left(open);
                const QByteArray tail = pattern.mid(i + 1);
                qsizetype start = open + 1;
                commas.append(i);
                for (const qsizetype end : std::as_const(commas)) {
                    expandInto(head + pattern.mid(start, end - start) + tail, out);
                    start = end + 1;
                }
                return;
            } else if (c == ',' && depth == 1) {
                commas.append(i);
            }
        }
    }
    out.append(pattern);
}

} // namespace

GlobPattern::GlobPattern(const QByteArray &pattern, int flags)
    : m_flags(flags)
{
    const QList<QByteArray> expanded = (flags & Braces) ? expandBraces(pattern)
                                                        : QList<QByteArray>{pattern};
    for (const QByteArray &text : expanded) {
        Alternative alternative;
        alternative.text = text;
        if (!(flags & CaseInsensitive)) {
            if (!hasWildcards(text)) {
                alternative.kind = Kind::Literal;
            } else if (text.startsWith('*') && !hasWildcards(text.mid(1))
                       && !text.mid(1).contains('/')) {
                alternative.kind = (flags & PathName) ? Kind::Suffix : Kind::AnySuffix;
                alternative.text = text.mid(1);
            } else if (text.startsWith("**/*") && !hasWildcards(text.mid(4))
                       && !text.mid(4).contains('/')) {
                alternative.kind = Kind::AnySuffix;
                alternative.text = text.mid(4);
            }
        }
        m_alternatives.append(alternative);
    }
}

bool GlobPattern::matches(const char *text) const
{
    const size_t length = std::strlen(text);
    for (const Alternative &alternative : m_alternatives) {
        const QByteArray &pattern = alternative.text;
        const size_t patternLength = size_t(pattern.size());
        switch (alternative.kind) {
        case Kind::Literal:
            if (length == patternLength && std::memcmp(text, pattern.constData(), length) == 0)
                return true;
            break;
        case Kind::Suffix:
        case Kind::AnySuffix:
            if (length >= patternLength
                && std::memcmp(text + length - patternLength, pattern.constData(), patternLength)
                       == 0
                && (alternative.kind == Kind::AnySuffix
                    || !std::memchr(text, '/', length - patternLength))) {
                return true;
            }
            break;
        case Kind::Wildcard:
            if (wildmatch(pattern.constData(), text, m_flags))
                return true;
            break;
        }
    }
    return false;
}

bool GlobPattern::wildmatch(const char *pattern, const char *text, int flags)
{
    return dowild(reinterpret_cast<const uchar *>(pattern),
                  reinterpret_cast<const uchar *>(text),
                  flags)
           == Match;
}

QList<QByteArray> GlobPattern::expandBraces(const QByteArray &pattern)
{
    QList<QByteArray> out;
    expandInto(pattern, out);
    return out;
}

bool GlobPattern::hasWildcards(const QByteArray &pattern)
{
    for (const char c : pattern) {
        if (isGlobSpecial(uchar(c)))
            return true;
    }
    return false;
}

} // namespace AgentCore

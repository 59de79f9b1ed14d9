package perflab.trade.liberty.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import perflab.trade.lean.site.BadRequest;
import perflab.trade.lean.site.SessionStore;
import perflab.trade.lean.site.SiteRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collections;

/** A servlet request as the site ({@link perflab.trade.lean.site.TradeSite}) reads it. */
final class ServletSiteRequest implements SiteRequest {
    private final HttpServletRequest request;
    /** The query's fields, parsed on first use. */
    private Form query;

    ServletSiteRequest(HttpServletRequest request) {
        this.request = request;
    }

    @Override
    public String method() {
        return request.getMethod();
    }

    /** The servlet is mapped to "/": its path is all of the request's path inside the application. */
    @Override
    public String path() {
        String servletPath = request.getServletPath();
        String info = request.getPathInfo();
        return info == null ? servletPath : servletPath + info;
    }

    @Override
    public String queryParameter(String name) {
        if (query == null) {
            query = FormText.parse(request.getQueryString(), Integer.MAX_VALUE);
        }
        return query.value(name);
    }

    @Override
    public String contentType() {
        return request.getContentType();
    }

    @Override
    public Form form(int maxFields, int maxBytes) {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            throw new BadRequest(413, "a form is at most " + maxBytes + " bytes");
        }
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes(maxBytes + 1);
            if (body.length > maxBytes) {
                throw new BadRequest(413, "a form is at most " + maxBytes + " bytes");
            }
            // url-encoded text is ASCII; anything else decodes to replacement characters and fails as UTF-8 below
            return FormText.parse(new String(body, StandardCharsets.ISO_8859_1), maxFields);
        } catch (IOException e) {
            throw new UncheckedIOException("reading a form failed: " + e.getMessage(), e);
        }
    }

    @Override
    public SessionStore session() {
        HttpSession session = request.getSession(false);
        return session == null ? null : new HttpSessionStore(session);
    }

    /**
     * The session with a new id ({@code changeSessionId}) when the request came with one, else a new session. Only
     * an existing session's id is changed: a session created in this request already has a fresh id, and changing
     * it again would send the browser two session cookies.
     */
    @Override
    public SessionStore loginSession() {
        HttpSession session = request.getSession(false);
        if (session != null) {
            request.changeSessionId();
            for (String name : Collections.list(session.getAttributeNames())) {
                session.removeAttribute(name);
            }
        } else {
            session = request.getSession(true);
        }
        return new HttpSessionStore(session);
    }

    @Override
    public boolean fromThisMachine() {
        try {
            // an address literal: no name lookup
            return SiteRequest.loopback(new InetSocketAddress(InetAddress.getByName(request.getRemoteAddr()), 0));
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** An HTTP session; an invalidated one reads as invalid instead of throwing. */
    private record HttpSessionStore(HttpSession session) implements SessionStore {
        @Override
        public boolean valid() {
            try {
                session.getCreationTime(); // throws once the session is invalid: the Servlet API has no isValid
                return true;
            } catch (IllegalStateException e) {
                return false;
            }
        }

        @Override
        public Object attribute(String name) {
            return session.getAttribute(name);
        }

        @Override
        public void attribute(String name, Object value) {
            session.setAttribute(name, value);
        }

        @Override
        public void invalidate() {
            session.invalidate();
        }
    }
}

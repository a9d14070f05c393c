package kcheck.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Debian's Chromium, headless, driven over the Chrome DevTools Protocol with the JDK's own
 * WebSocket client: enough to load a page, evaluate JavaScript, send real mouse and key events
 * and take a screenshot. Started with the flags this machine needs (no sandbox as root, no
 * background networking on a closed network).
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final WebSocket ws;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

    private static final String[] BINARIES = {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"};

    /**
     * The browser binary for a test that needs one; without one the test is skipped, saying so
     * (under KCHECK_CI=1 it fails instead: .ci/run installs Chromium).
     */
    public static Path required() {
        Path b = binary();
        Assumptions.assumeTrue(b != null, "no Chromium (none of " + String.join(", ", BINARIES)
                + "): install Debian's package 'chromium' (.ci/run does)");
        return b;
    }

    /** The browser binary, or null if none is installed. */
    public static Path binary() {
        for (String p : BINARIES) {
            if (Files.isExecutable(Path.of(p))) {
                return Path.of(p);
            }
        }
        return null;
    }

    public HeadlessChromium(Path binary, Path profile, String url) throws Exception {
        process = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,900", "--user-data-dir=" + profile,
                "--remote-debugging-port=0", url).redirectErrorStream(true).start();
        int port = devtoolsPort();
        HttpClient http = HttpClient.newHttpClient();
        String wsUrl = null;
        for (int i = 0; i < 100 && wsUrl == null; i++) {
            String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            for (JsonNode target : JSON.readTree(list)) {
                if ("page".equals(target.path("type").asText())) {
                    wsUrl = target.get("webSocketDebuggerUrl").asText();
                }
            }
            if (wsUrl == null) {
                Thread.sleep(100);
            }
        }
        if (wsUrl == null) {
            throw new IOException("no page target");
        }
        ws = http.newWebSocketBuilder().buildAsync(URI.create(wsUrl), new Listener()).get(10, TimeUnit.SECONDS);
    }

    private int devtoolsPort() throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Pattern p = Pattern.compile("DevTools listening on ws://[^:]+:(\\d+)/");
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String line;
        while (System.nanoTime() < deadline && (line = r.readLine()) != null) {
            Matcher m = p.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> {
                    try {
                        while (r.readLine() != null) {
                            // keep the pipe empty
                        }
                    } catch (IOException ignored) {
                        // browser gone
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return Integer.parseInt(m.group(1));
            }
        }
        throw new IOException("chromium did not report a DevTools port");
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder buf = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            buf.append(data);
            if (last) {
                try {
                    JsonNode msg = JSON.readTree(buf.toString());
                    CompletableFuture<JsonNode> f = msg.has("id") ? pending.remove(msg.get("id").asInt()) : null;
                    if (f != null) {
                        f.complete(msg);
                    }
                } catch (IOException e) {
                    // ignore events we cannot parse
                }
                buf.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }

    /** Sends one DevTools command and waits for its result. */
    JsonNode send(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params == null ? JSON.createObjectNode() : params);
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        ws.sendText(JSON.writeValueAsString(msg), true).get(10, TimeUnit.SECONDS);
        JsonNode reply = f.get(20, TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new IOException(method + ": " + reply.get("error"));
        }
        return reply.get("result");
    }

    /** Evaluates a JavaScript expression in the page and returns its value. */
    public JsonNode eval(String expression) throws Exception {
        ObjectNode p = JSON.createObjectNode().put("expression", expression).put("returnByValue", true);
        return send("Runtime.evaluate", p).path("result").path("value");
    }

    /** A real mouse click (press and release) at the centre of the element {@code selector}. */
    public void click(String selector) throws Exception {
        JsonNode r = eval("(function(){var b=document.querySelector('" + selector
                + "').getBoundingClientRect();return {x:b.left+b.width/2,y:b.top+b.height/2};})()");
        for (String type : new String[] {"mousePressed", "mouseReleased"}) {
            ObjectNode p = JSON.createObjectNode().put("type", type).put("x", r.get("x").asDouble())
                    .put("y", r.get("y").asDouble()).put("button", "left").put("clickCount", 1);
            send("Input.dispatchMouseEvent", p);
        }
    }

    /** A real key press, e.g. "ArrowRight". */
    public void key(String key) throws Exception {
        for (String type : new String[] {"keyDown", "keyUp"}) {
            send("Input.dispatchKeyEvent", JSON.createObjectNode().put("type", type).put("key", key).put("code", key)
                    .put("windowsVirtualKeyCode", key.equals("ArrowRight") ? 39 : key.equals("ArrowLeft") ? 37 : 0));
        }
    }

    public byte[] screenshot() throws Exception {
        String data = send("Page.captureScreenshot", JSON.createObjectNode().put("format", "png")).get("data").asText();
        return java.util.Base64.getDecoder().decode(data);
    }

    /** A screenshot of the element {@code selector} only (the page scrolled to its top first, sticky bars back in place). */
    public byte[] screenshot(String selector) throws Exception {
        JsonNode r = eval("(function(){var e=document.querySelector('" + selector + "');window.scrollTo(0,0);"
                + "var b=e.getBoundingClientRect();return {x:b.left+window.scrollX,y:b.top+window.scrollY,w:b.width,h:b.height};})()");
        ObjectNode clip = JSON.createObjectNode().put("x", r.get("x").asDouble()).put("y", r.get("y").asDouble())
                .put("width", r.get("w").asDouble()).put("height", r.get("h").asDouble()).put("scale", 1);
        ObjectNode p = JSON.createObjectNode().put("format", "png").put("captureBeyondViewport", true);
        p.set("clip", clip);
        return java.util.Base64.getDecoder().decode(send("Page.captureScreenshot", p).get("data").asText());
    }

    /** Waits until {@code expression} is true in the page. */
    public void await(String expression) throws Exception {
        for (int i = 0; i < 200; i++) {
            if (eval(expression).asBoolean(false)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IOException("timed out waiting for " + expression);
    }

    @Override
    public void close() {
        try {
            if (ws != null) {
                ws.abort();
            }
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Deletes a browser profile directory, best effort (the browser may leave sockets behind). */
    public static void deleteQuietly(Path dir) {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a leftover profile in /tmp is harmless
        }
    }
}

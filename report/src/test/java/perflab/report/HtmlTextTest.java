package perflab.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import perflab.core.result.Json;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class HtmlTextTest {
    @Test
    void escapesEveryCharacterWithAMeaningInHtml() {
        assertEquals("&lt;b onclick=&quot;x&quot;&gt;a &amp; &#39;b&#39;&lt;/b&gt;", HtmlText.escape("<b onclick=\"x\">a & 'b'</b>"));
        assertEquals("", HtmlText.escape(null));
    }

    @Test
    void scriptJsonCannotEndItsScriptElementAndMeansTheSame() throws Exception {
        String hostile = "</script><script>alert(1)</script><!-- & \u2028";
        String json = HtmlText.scriptJson(Map.of("name", hostile));
        assertFalse(json.toLowerCase().contains("</script"), json);
        assertFalse(json.contains("<!--"), json);
        assertFalse(json.contains("<") || json.contains(">") || json.contains("&"), json);
        JsonNode back = Json.MAPPER.readTree(json);
        assertEquals(hostile, back.get("name").asText());
    }

    @Test
    void chartLibraryIsInlinedFromTheWebJar() {
        ChartLibrary lib = ChartLibrary.get();
        assertEquals("4.5.1", lib.version());
        assertFalse(lib.script().toLowerCase().contains("</script"));
        assertFalse(lib.script().isBlank());
    }
}

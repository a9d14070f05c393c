package kcheck.trace;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JsonInputTest {

    @Test
    void aKeyGivenTwiceInOneObjectIsRefusedNamingTheKeyAndWhereItIs() {
        assertThatThrownBy(() -> JsonInput.parse("f.json", "{\"a\": [{}, {\"b\": {\"c\": 1,\n\"c\": 2}}]}", IllegalStateException::new))
                .hasMessage("f.json: the key \"c\" appears twice in \"a\" item 2 \"b\" at line 2, column 4: kcheck does not guess "
                        + "which one is meant");
        assertThatThrownBy(() -> JsonInput.parse("f.json", "{\"format\": 1, \"format\": 2}", IllegalStateException::new))
                .hasMessageStartingWith("f.json: the key \"format\" appears twice in the top-level object at line 1, column");
    }
}

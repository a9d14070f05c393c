package kcheck.litmus;

import java.util.List;
import java.util.Map;

/** One way a thread can run: its events in program order and its registers' final values. */
record ThreadPath(int thread, List<Event> events, Map<String, Val> registers) {
}

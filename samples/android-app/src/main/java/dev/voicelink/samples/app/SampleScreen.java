package dev.voicelink.samples.app;

import android.content.Context;
import android.graphics.Typeface;
import android.view.View;
import android.view.ViewGroup;
import android.widget.Button;
import android.widget.EditText;
import android.widget.ImageView;
import android.widget.LinearLayout;
import android.widget.ScrollView;
import android.widget.TextView;

/**
 * The sample's one screen, built in code: the sign-in status and buttons, the user code, link and QR
 * code, the Agent's command buttons and the event log. Every view carries a tag ({@code
 * MainActivity.TAG_*}) by which tests find it. Buttons start disabled; {@link SignInPanel}, {@link
 * AgentPanel} and {@link MainActivity} set their actions and enable them. Main thread only, like every
 * view.
 */
final class SampleScreen {
  final LinearLayout root;
  final TextView status;
  final Button authorize;
  final Button signOut;
  final TextView userCode;
  final TextView link;
  final ImageView qr;
  final Button sync;
  final Button query;
  final Button setParams;
  final EditText writeText;
  final Button write;
  final TextView eventLog;
  private final ScrollView eventScroll;
  private final Context context;

  SampleScreen(Context context) {
    this.context = context;
    int pad = dp(12);
    root = new LinearLayout(context);
    root.setOrientation(LinearLayout.VERTICAL);
    root.setPadding(pad, pad, pad, pad);

    status = text(MainActivity.TAG_STATUS, 16);
    root.addView(status);
    authorize = button(MainActivity.TAG_AUTHORIZE, "Authorize this device");
    root.addView(authorize);
    signOut = button(MainActivity.TAG_SIGN_OUT, "Sign out");
    root.addView(signOut);
    userCode = text(MainActivity.TAG_USER_CODE, 28);
    userCode.setTypeface(Typeface.MONOSPACE, Typeface.BOLD);
    root.addView(userCode);
    link = text(MainActivity.TAG_LINK, 14);
    link.setTextIsSelectable(true);
    root.addView(link);
    qr = new ImageView(context);
    qr.setTag(MainActivity.TAG_QR);
    qr.setVisibility(View.GONE);
    qr.setAdjustViewBounds(true);
    root.addView(qr, new LinearLayout.LayoutParams(dp(180), dp(180)));

    LinearLayout commands = new LinearLayout(context);
    commands.setOrientation(LinearLayout.HORIZONTAL);
    sync = button(MainActivity.TAG_SYNC, "Sync contacts");
    query = button(MainActivity.TAG_QUERY, "Query status");
    setParams = button(MainActivity.TAG_SET_PARAMS, "Set pers_param");
    for (Button b : new Button[] {sync, query, setParams}) {
      commands.addView(b, new LinearLayout.LayoutParams(0, ViewGroup.LayoutParams.WRAP_CONTENT, 1));
    }
    root.addView(commands);

    LinearLayout writeRow = new LinearLayout(context);
    writeRow.setOrientation(LinearLayout.HORIZONTAL);
    writeText = new EditText(context);
    writeText.setTag(MainActivity.TAG_WRITE_TEXT);
    writeText.setSingleLine(true);
    writeRow.addView(writeText, new LinearLayout.LayoutParams(0, ViewGroup.LayoutParams.WRAP_CONTENT, 1));
    write = button(MainActivity.TAG_WRITE, "Write text");
    writeRow.addView(write);
    root.addView(writeRow);

    eventLog = text(MainActivity.TAG_EVENT_LOG, 12);
    eventLog.setTypeface(Typeface.MONOSPACE);
    eventLog.setTextIsSelectable(true);
    eventScroll = new ScrollView(context);
    eventScroll.addView(eventLog);
    root.addView(eventScroll, new LinearLayout.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, 0, 1));
  }

  /** Adds {@code line} to the event log and scrolls to it. */
  void log(String line) {
    if (eventLog.length() > 0) eventLog.append("\n");
    eventLog.append(line);
    eventScroll.post(() -> eventScroll.fullScroll(View.FOCUS_DOWN));
  }

  private TextView text(String tag, int sp) {
    TextView view = new TextView(context);
    view.setTag(tag);
    view.setTextSize(sp);
    return view;
  }

  private Button button(String tag, String label) {
    Button button = new Button(context);
    button.setTag(tag);
    button.setText(label);
    button.setEnabled(false);
    return button;
  }

  private int dp(int value) {
    return Math.round(value * context.getResources().getDisplayMetrics().density);
  }
}

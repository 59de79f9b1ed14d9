package perflab.trade.lean;

/** A user's profile as the account page shows it: DayTrader's AccountProfileDataBean without the password. */
public record Profile(String userId, String fullName, String address, String email, String creditCard) {
}

package perflab.trade.lean.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import perflab.trade.lean.Account;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A row of account: a user's cash and login counts (DayTrader's AccountDataBean). The profile is linked by its user
 * id, a plain column as in the schema (see the package note). Its changes are read-modify-write, so callers change
 * it only after reading it under its row lock.
 */
@Entity
@Table(name = "account")
class AccountEntity {
    @Id
    @Column(name = "accountid")
    private int accountId;
    @Column(name = "profile_userid")
    private String userId;
    @Column(name = "balance")
    private BigDecimal balance;
    @Column(name = "openbalance")
    private BigDecimal openBalance;
    @Column(name = "logincount")
    private int loginCount;
    @Column(name = "logoutcount")
    private int logoutCount;
    @Column(name = "creationdate")
    private Instant creationDate;
    @Column(name = "lastlogin")
    private Instant lastLogin;

    /** For the JPA provider, which makes entities by reflection. */
    protected AccountEntity() {
    }

    /** A new account holding its opening balance, created and last logged in {@code now}. */
    AccountEntity(int accountId, String userId, BigDecimal openingBalance, Instant now) {
        this.accountId = accountId;
        this.userId = userId;
        this.balance = openingBalance;
        this.openBalance = openingBalance;
        this.creationDate = now;
        this.lastLogin = now;
    }

    /** Adds a (possibly negative) amount: a buy's cost, a sell's proceeds or a cancelled sell's refund. */
    void addToBalance(BigDecimal amount) {
        balance = balance.add(amount);
    }

    void recordLogin(Instant now) {
        lastLogin = now;
        loginCount++;
    }

    void recordLogout() {
        logoutCount++;
    }

    Account toAccount() {
        return new Account(accountId, userId, balance, openBalance, loginCount, logoutCount, creationDate,
                lastLogin);
    }
}

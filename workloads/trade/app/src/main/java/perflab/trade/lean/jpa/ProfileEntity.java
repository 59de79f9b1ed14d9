package perflab.trade.lean.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import perflab.trade.lean.Profile;

/** A row of accountprofile: who the user is, and the password's hash (DayTrader's AccountProfileDataBean). */
@Entity
@Table(name = "accountprofile")
class ProfileEntity {
    @Id
    @Column(name = "userid")
    private String userId;
    @Column(name = "passwd")
    private String passwordHash;
    @Column(name = "fullname")
    private String fullName;
    @Column(name = "address")
    private String address;
    @Column(name = "email")
    private String email;
    @Column(name = "creditcard")
    private String creditCard;

    /** For the JPA provider, which makes entities by reflection. */
    protected ProfileEntity() {
    }

    ProfileEntity(String userId, String passwordHash, String fullName, String address, String email,
                  String creditCard) {
        this.userId = userId;
        update(passwordHash, fullName, address, email, creditCard);
    }

    String passwordHash() {
        return passwordHash;
    }

    /** Every field at once, the password's hash included (DayTrader's update form sends them all). */
    void update(String passwordHash, String fullName, String address, String email, String creditCard) {
        this.passwordHash = passwordHash;
        this.fullName = fullName;
        this.address = address;
        this.email = email;
        this.creditCard = creditCard;
    }

    Profile toProfile() {
        return new Profile(userId, fullName, address, email, creditCard);
    }
}
